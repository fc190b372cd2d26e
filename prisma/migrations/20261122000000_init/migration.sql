-- CreateTable
CREATE TABLE "startups" (
    "id" BIGSERIAL NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "version" TEXT NOT NULL,
    "catalog_hash" TEXT NOT NULL,
    "entry_count" INTEGER NOT NULL,

    CONSTRAINT "startups_pkey" PRIMARY KEY ("id")
);
