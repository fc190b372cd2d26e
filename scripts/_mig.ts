import { migrate } from "@/lib/db/migrate";
const url = process.argv[2];
void migrate(url).then((r) => console.log(r.applied), (e) => { console.error(e); process.exit(1); });
