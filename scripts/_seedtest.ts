import pg from "pg";
import { seedHistory } from "./bench-incidents-seed";
const c = new pg.Client({ connectionString: process.argv[2] });
void c.connect().then(() => seedHistory(c, Number(process.argv[3]), Number(process.argv[4]), console.log)).then(() => c.end());
