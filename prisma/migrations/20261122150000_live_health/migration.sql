-- CreateTable
CREATE TABLE "signal_states" (
    "cluster" TEXT NOT NULL,
    "signal" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "detail" TEXT NOT NULL,
    "evidence" JSONB,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "signal_states_pkey" PRIMARY KEY ("cluster","signal","subject")
);

-- CreateTable
CREATE TABLE "signal_transitions" (
    "id" BIGSERIAL NOT NULL,
    "cluster" TEXT NOT NULL,
    "signal" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "previous" TEXT,
    "state" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "detail" TEXT NOT NULL,

    CONSTRAINT "signal_transitions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "source_snapshots" (
    "cluster" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "up" BOOLEAN NOT NULL,
    "last_success" TIMESTAMPTZ(3),
    "down_since" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "value" JSONB,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "source_snapshots_pkey" PRIMARY KEY ("cluster","source")
);

-- CreateIndex
CREATE INDEX "signal_transitions_cluster_at_idx" ON "signal_transitions"("cluster", "at");
