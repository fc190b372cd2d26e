-- A signal that flaps (critical, ok, critical, ...) never stays down long enough to debounce: the rules keep when it
-- last turned not-ok, so three turns within the flapping window open an incident (lib/incidents/rules.ts).
ALTER TABLE "signal_states" ADD COLUMN "onsets" TIMESTAMPTZ(3)[] NOT NULL DEFAULT '{}';
