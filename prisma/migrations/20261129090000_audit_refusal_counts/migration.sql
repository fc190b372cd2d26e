-- Refusals reach the audit log gathered (docs/auth.md, "The audit log"): refusals alike within one window are one
-- row that says how many requests it stands for and when the first and the last came, so a flood of forged
-- requests is counted whole without a row each. Rows are still written once and never changed.
ALTER TABLE "audit_log" ADD COLUMN "count" INTEGER NOT NULL DEFAULT 1 CHECK ("count" >= 1);
ALTER TABLE "audit_log" ADD COLUMN "last_at" TIMESTAMPTZ(3);
