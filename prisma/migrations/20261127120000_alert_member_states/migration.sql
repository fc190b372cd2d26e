-- Alert members keep their state in the signals' words, as signal members do: a firing alert is critical (the
-- rankings always read it so), a resolved one ok. Before, they were stored as firing | resolved and remapped at read.
UPDATE "incident_members" SET "state" = CASE "state" WHEN 'firing' THEN 'critical' ELSE 'ok' END
WHERE "source" = 'alert' AND "state" IN ('firing', 'resolved');
