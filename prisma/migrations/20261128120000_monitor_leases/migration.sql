-- Leadership of a cluster's monitor as a lease (docs/replicas.md, ADR 14): the leader renews its row every second;
-- a follower takes the row over, with the next term, once it has expired by the database's clock, even when the
-- old leader's process still holds a connection (frozen, or cut off half-open), or at once when the leader's
-- presence session has ended (the process died). Every write a leader makes for
-- its cluster first calls faultline_fence, which refuses a term that is no longer the live one and holds the row
-- shared until the write commits, so a takeover waits for a write in flight and never sees half of it.
CREATE TABLE "monitor_leases" (
  "cluster" TEXT PRIMARY KEY,
  "holder" TEXT NOT NULL,
  "term" BIGINT NOT NULL,
  "acquired_at" TIMESTAMPTZ(3) NOT NULL,
  "renewed_at" TIMESTAMPTZ(3) NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  -- The backend pid of the holder's presence connection: when that session is gone (the process died), the lease
  -- is free at once instead of when it runs out.
  "presence_pid" INTEGER
);

CREATE FUNCTION faultline_fence(p_cluster TEXT, p_holder TEXT, p_term BIGINT) RETURNS BOOLEAN
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "monitor_leases"
    WHERE "cluster" = p_cluster AND "holder" = p_holder AND "term" = p_term AND "expires_at" > clock_timestamp()
    FOR KEY SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'FAULTLINE_STALE_TERM: the monitor lease of % is no longer held at term %', p_cluster, p_term
      USING ERRCODE = 'FL409';
  END IF;
  RETURN TRUE;
END
$$;

-- The latest health the leader composed, for the followers to serve as read by the leader: written when what a
-- viewer sees changes (with a NOTIFY on channel faultline_live), and its read time every round.
CREATE TABLE "live_health" (
  "cluster" TEXT PRIMARY KEY,
  "term" BIGINT NOT NULL,
  "digest" TEXT NOT NULL,
  "read_at" TIMESTAMPTZ(3) NOT NULL,
  "health" JSONB NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL
);
