// Runs `prisma generate` offline. Prisma looks for a native schema-engine binary that it would
// download from outside the npm registry; generate never executes it, so any existing file will do.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);
const bin = fileURLToPath(new URL("../node_modules/prisma/build/index.js", import.meta.url));
const result = spawnSync(process.execPath, [bin, "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
