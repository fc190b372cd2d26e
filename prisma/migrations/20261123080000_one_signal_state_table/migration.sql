-- One signal-state table: the incident rules' memory (incident_rule_states) moves into signal_states.
ALTER TABLE "signal_states"
    ADD COLUMN "judged" TEXT,
    ADD COLUMN "judged_since" TIMESTAMPTZ(3),
    ADD COLUMN "streak" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "handled" BOOLEAN NOT NULL DEFAULT false;

-- A signal the rules remember but the store never wrote (its write was refused) gets a row of its own;
-- one the store holds keeps its committed state and gains the rules' memory (and their newer detail).
INSERT INTO "signal_states" ("cluster", "signal", "subject", "state", "since", "detail", "updated_at", "judged", "judged_since", "streak", "handled")
SELECT "cluster", "signal", "subject", "state", "since", "detail", "updated_at", "state", "since", "streak", "handled"
FROM "incident_rule_states"
ON CONFLICT ("cluster", "signal", "subject") DO UPDATE SET
    "judged" = EXCLUDED."judged",
    "judged_since" = EXCLUDED."judged_since",
    "streak" = EXCLUDED."streak",
    "handled" = EXCLUDED."handled",
    "detail" = EXCLUDED."detail";

DROP TABLE "incident_rule_states";
