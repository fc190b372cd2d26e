-- Incident history (docs/incidents.md, "History and search"): the list's order served by an index, keyset pages,
-- full-text search over titles, subjects, suspects and notes, and counts per status without a scan.

-- "Needs attention first" as stored keys: open 6, acknowledged 3, resolved 0, plus critical 2, warning 1, info 0;
-- then when it opened or last reopened. Generated, so no writer can leave them stale.
ALTER TABLE "incidents"
  ADD COLUMN "attention" INTEGER NOT NULL GENERATED ALWAYS AS (
    CASE "status" WHEN 'open' THEN 6 WHEN 'acknowledged' THEN 3 ELSE 0 END
    + CASE "severity" WHEN 'critical' THEN 2 WHEN 'warning' THEN 1 ELSE 0 END) STORED,
  ADD COLUMN "listed_at" TIMESTAMPTZ(3) NOT NULL GENERATED ALWAYS AS (COALESCE("reopened_at", "opened_at")) STORED;

CREATE INDEX "incidents_attention_listed_at_id_idx" ON "incidents"("attention" DESC, "listed_at" DESC, "id" DESC);
CREATE INDEX "incidents_cluster_attention_listed_at_id_idx" ON "incidents"("cluster", "attention" DESC, "listed_at" DESC, "id" DESC);
CREATE INDEX "incidents_listed_at_id_idx" ON "incidents"("listed_at" DESC, "id" DESC);

-- The search document's words. Punctuation becomes spaces before PostgreSQL's parser sees it ("node-1/kms-a" would
-- otherwise be the tokens "node", "-1", "/kms-a"), so phrases match part by part; and each punctuated word (up to
-- 200 characters) adds its parts joined from each of its first 7 parts on ("node1kmsa 1kmsa kmsa"), so a search
-- for "kms-a" or "node-1/kms" is one prefix lookup ("kmsa:*", "node1kms:*") instead of a phrase to recheck.
-- lib/incidents/search.ts builds queries the same way. Bounded to 100,000 characters (tsvector holds 1 MB).
CREATE FUNCTION "incident_search_words"("text" TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN translate(left("text", 100000), '/._:-@=,;()[]{}"''<>|\+*&^%$#!?~`', repeat(' ', 33)) || ' ' || COALESCE((
  SELECT string_agg(array_to_string(a.p[k:], ''), ' ')
  FROM regexp_matches(left("text", 100000), '[^\s/._:@=,;()\[\]{}"''<>|\\+*&^%$#!?~`-]+(?:[/._:@=,;()\[\]{}"''<>|\\+*&^%$#!?~`-]+[^\s/._:@=,;()\[\]{}"''<>|\\+*&^%$#!?~`-]+)+', 'g') AS m,
       LATERAL (SELECT regexp_split_to_array(m[1], '[/._:@=,;()\[\]{}"''<>|\\+*&^%$#!?~`-]+') AS p) a,
       LATERAL generate_series(1, least(array_length(a.p, 1), 8) - 1) k
  WHERE length(m[1]) <= 200), '');

CREATE TABLE "incident_search" (
    "incident_id" INTEGER NOT NULL,
    "head" TEXT NOT NULL,
    "extra" TEXT NOT NULL DEFAULT '',
    "document" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "incident_search_words"("head" || ' ' || "extra"))) STORED,

    CONSTRAINT "incident_search_pkey" PRIMARY KEY ("incident_id")
);
ALTER TABLE "incident_search" ADD CONSTRAINT "incident_search_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "incident_search_document_idx" ON "incident_search" USING GIN ("document");
-- Statistics on 10,000 words instead of 1,000: a subject's joined words are among them, and lib/incidents/queries.ts
-- chooses its plan from the estimated number of matches.
ALTER TABLE "incident_search" ALTER COLUMN "document" SET STATISTICS 1000;

-- What an incident's own columns contribute: title, what opened it, cluster, resolution, suspects' ids and titles.
CREATE FUNCTION "incident_search_head"(i "incidents") RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN concat_ws(' ', i."title", i."signal", i."subject", i."cluster", i."resolution",
    jsonb_path_query_array(i."suspects", '$[*].id')::text, jsonb_path_query_array(i."suspects", '$[*].title')::text);

CREATE FUNCTION "incident_search_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "incident_search" ("incident_id", "head") SELECT n."id", "incident_search_head"(n) FROM new_rows n;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "incidents_search_insert" AFTER INSERT ON "incidents"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_search_inserted"();

CREATE FUNCTION "incident_search_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "incident_search" SET "head" = "incident_search_head"(NEW) WHERE "incident_id" = NEW."id";
  RETURN NULL;
END;
$$;
CREATE TRIGGER "incidents_search_update" AFTER UPDATE OF "title", "signal", "subject", "cluster", "resolution", "suspects" ON "incidents"
  FOR EACH ROW WHEN (incident_search_head(OLD) IS DISTINCT FROM incident_search_head(NEW)) EXECUTE FUNCTION "incident_search_updated"();

-- Members and notes only ever arrive (members keep their subject; the timeline is append-only), so they are appended.
-- The extra text stops growing at 60,000 characters: an incident with thousands of notes stays findable by its first ones.
-- Members come in bulk (an alert group), so per statement; notes one at a time, and a row trigger with WHEN leaves the
-- timeline's other inserts (a delivery of 100,000 alerts) without a transition table to fill.
CREATE FUNCTION "incident_search_members"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "incident_search" s SET "extra" = left(s."extra" || ' ' || a."words", 60000)
  FROM (SELECT "incident_id", string_agg("signal" || ' ' || "subject", ' ') AS "words" FROM new_rows GROUP BY "incident_id") a
  WHERE s."incident_id" = a."incident_id" AND length(s."extra") < 60000;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "incident_members_search" AFTER INSERT ON "incident_members"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_search_members"();

CREATE FUNCTION "incident_search_note"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "incident_search" SET "extra" = left("extra" || ' ' || left(COALESCE(NEW."payload"->>'text', NEW."payload"->>'note'), 10000), 60000)
  WHERE "incident_id" = NEW."incident_id" AND length("extra") < 60000;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "incident_events_search" AFTER INSERT ON "incident_events" FOR EACH ROW
  WHEN (NEW."kind" IN ('note', 'status_change') AND COALESCE(NEW."payload"->>'text', NEW."payload"->>'note') IS NOT NULL)
  EXECUTE FUNCTION "incident_search_note"();

INSERT INTO "incident_search" ("incident_id", "head", "extra")
SELECT i."id", "incident_search_head"(i), left(concat_ws(' ',
  (SELECT string_agg(m."signal" || ' ' || m."subject", ' ' ORDER BY m."id") FROM "incident_members" m WHERE m."incident_id" = i."id"),
  (SELECT string_agg(left(COALESCE(e."payload"->>'text', e."payload"->>'note'), 10000), ' ' ORDER BY e."id") FROM "incident_events" e
   WHERE e."incident_id" = i."id" AND e."kind" IN ('note', 'status_change') AND COALESCE(e."payload"->>'text', e."payload"->>'note') IS NOT NULL)), 60000)
FROM "incidents" i;

-- Counts per cluster and status: writers insert +1/-1 rows (lib/incidents/counts.ts folds them up when read).
CREATE TABLE "incident_status_counts" (
    "id" BIGSERIAL NOT NULL,
    "cluster" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "incident_status_counts_pkey" PRIMARY KEY ("id")
);

-- Inserts per statement (an alert group opens many at once); changes per row, only when status or cluster change, so
-- the frequent updates of last_seen_at and suspects capture nothing.
CREATE FUNCTION "incident_status_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "incident_status_counts" ("cluster", "status", "delta") SELECT "cluster", "status", count(*) FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "incident_status_counts" ("cluster", "status", "delta") SELECT "cluster", "status", -count(*) FROM old_rows GROUP BY 1, 2;
  ELSE
    INSERT INTO "incident_status_counts" ("cluster", "status", "delta") VALUES (OLD."cluster", OLD."status", -1), (NEW."cluster", NEW."status", 1);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "incidents_count_insert" AFTER INSERT ON "incidents"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_status_count"();
CREATE TRIGGER "incidents_count_update" AFTER UPDATE OF "status", "cluster" ON "incidents" FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."cluster" IS DISTINCT FROM NEW."cluster")
  EXECUTE FUNCTION "incident_status_count"();
CREATE TRIGGER "incidents_count_delete" AFTER DELETE ON "incidents"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "incident_status_count"();

INSERT INTO "incident_status_counts" ("cluster", "status", "delta") SELECT "cluster", "status", count(*) FROM "incidents" GROUP BY 1, 2;
