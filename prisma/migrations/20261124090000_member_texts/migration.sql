-- What a member's signal said besides its sentence (its problem's texts: a plugin's whole error, a probe body), kept so
-- the incident's suspects are ranked on the same evidence the evaluation measures (docs/diagnosis.md).
ALTER TABLE "incident_members" ADD COLUMN "texts" TEXT[] NOT NULL DEFAULT '{}';
