-- Who did what (docs/auth.md): every state-changing request and every sign-in, refused ones too.
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "actor" TEXT NOT NULL,
    "role" TEXT,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "object_type" TEXT,
    "object_id" TEXT,
    "remote" TEXT,
    "status" INTEGER NOT NULL,
    "detail" TEXT,
    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_log_at_idx" ON "audit_log"("at");
CREATE INDEX "audit_log_actor_at_idx" ON "audit_log"("actor", "at");

-- The audit log is append-only, as the incident timeline is: nothing recorded is rewritten or removed.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER "audit_log_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();

-- Signed-in people (FAULTLINE_AUTH=oidc): the cookie holds an opaque id, the row is found by its sha256.
CREATE TABLE "auth_sessions" (
    "id_hash" TEXT NOT NULL,
    "user" TEXT NOT NULL,
    "groups" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "refresh_token" TEXT,
    "id_token" TEXT,
    "ended_at" TIMESTAMPTZ(3),
    CONSTRAINT "auth_sessions_pkey" PRIMARY KEY ("id_hash")
);
CREATE INDEX "auth_sessions_expires_at_idx" ON "auth_sessions"("expires_at");
