-- Incidents (docs/incidents.md): incidents, their fingerprints, an append-only timeline, runbook sessions and
-- the rules' memory between rounds.

-- CreateTable
CREATE TABLE "incidents" (
    "id" SERIAL NOT NULL,
    "cluster" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "signal" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL,
    "acknowledged_at" TIMESTAMPTZ(3),
    "acknowledged_by" TEXT,
    "resolved_at" TIMESTAMPTZ(3),
    "resolved_by" TEXT,
    "resolution" TEXT,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "reopened_at" TIMESTAMPTZ(3),
    "reopen_count" INTEGER NOT NULL DEFAULT 0,
    "links" JSONB NOT NULL DEFAULT '{}',
    "suspects" JSONB NOT NULL DEFAULT '[]',
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "incidents_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "incidents_status_check" CHECK ("status" IN ('open', 'acknowledged', 'resolved')),
    CONSTRAINT "incidents_severity_check" CHECK ("severity" IN ('critical', 'warning', 'info')),
    CONSTRAINT "incidents_resolved_check" CHECK (("status" = 'resolved') = ("resolved_at" IS NOT NULL))
);

-- CreateTable
CREATE TABLE "incident_members" (
    "id" SERIAL NOT NULL,
    "incident_id" INTEGER NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "cluster" TEXT NOT NULL,
    "signal" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "open" BOOLEAN NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,
    "healthy_since" TIMESTAMPTZ(3),

    CONSTRAINT "incident_members_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incident_events" (
    "id" BIGSERIAL NOT NULL,
    "incident_id" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "idempotency_key" TEXT,

    CONSTRAINT "incident_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incident_runbook_sessions" (
    "id" SERIAL NOT NULL,
    "incident_id" INTEGER NOT NULL,
    "runbook_id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "started_by" TEXT NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "outcome" TEXT,
    "path" JSONB NOT NULL DEFAULT '[]',
    "steps" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "incident_runbook_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incident_rule_states" (
    "cluster" TEXT NOT NULL,
    "signal" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "streak" INTEGER NOT NULL,
    "handled" BOOLEAN NOT NULL,
    "detail" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "incident_rule_states_pkey" PRIMARY KEY ("cluster","signal","subject")
);

-- CreateIndex
CREATE INDEX "incidents_cluster_status_idx" ON "incidents"("cluster", "status");
CREATE INDEX "incidents_status_opened_at_idx" ON "incidents"("status", "opened_at");
CREATE UNIQUE INDEX "incident_members_incident_id_fingerprint_key" ON "incident_members"("incident_id", "fingerprint");
CREATE INDEX "incident_members_cluster_fingerprint_idx" ON "incident_members"("cluster", "fingerprint");
CREATE UNIQUE INDEX "incident_events_idempotency_key_key" ON "incident_events"("idempotency_key");
CREATE INDEX "incident_events_incident_id_id_idx" ON "incident_events"("incident_id", "id");
CREATE INDEX "incident_runbook_sessions_incident_id_idx" ON "incident_runbook_sessions"("incident_id");

-- One non-resolved incident per fingerprint, however many writers race (not expressible in schema.prisma).
CREATE UNIQUE INDEX "incidents_one_unresolved_per_fingerprint" ON "incidents"("fingerprint") WHERE "status" <> 'resolved';
CREATE UNIQUE INDEX "incident_members_one_open_per_fingerprint" ON "incident_members"("fingerprint") WHERE "open";

-- AddForeignKey
ALTER TABLE "incident_members" ADD CONSTRAINT "incident_members_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "incident_runbook_sessions" ADD CONSTRAINT "incident_runbook_sessions_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The timeline is append-only: what was recorded during an incident is never rewritten.
CREATE FUNCTION "incident_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'incident_events is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER "incident_events_no_update_delete" BEFORE UPDATE OR DELETE ON "incident_events"
  FOR EACH ROW EXECUTE FUNCTION "incident_events_append_only"();
CREATE TRIGGER "incident_events_no_truncate" BEFORE TRUNCATE ON "incident_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "incident_events_append_only"();
