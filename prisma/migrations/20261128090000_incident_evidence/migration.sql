-- Evidence an incident gathered besides its members' signals: pasted output, the tail of a pod's logs, a journal
-- (docs/diagnosis.md, "Evidence"). Each row is cleaned, its secrets hidden and its texts bounded before it is written;
-- its suspects are ranked on it with the members. A row with a key (one pod's container, one journal unit) is
-- replaced when read again, so reading the logs twice does not count them twice.
CREATE TABLE "incident_evidence" (
  "id" SERIAL PRIMARY KEY,
  "incident_id" INTEGER NOT NULL REFERENCES "incidents"("id") ON DELETE RESTRICT,
  "kind" TEXT NOT NULL,
  "source" TEXT NOT NULL,
  "actor" TEXT NOT NULL,
  "texts" TEXT[] NOT NULL DEFAULT '{}',
  "classes" TEXT[] NOT NULL DEFAULT '{}',
  "bytes" INTEGER NOT NULL DEFAULT 0,
  "key" TEXT,
  "at" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "incident_evidence_incident_id_idx" ON "incident_evidence" ("incident_id", "id");
CREATE UNIQUE INDEX "incident_evidence_incident_id_key_key" ON "incident_evidence" ("incident_id", "key");
