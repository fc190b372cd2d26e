import { describe, expect, it } from "vitest";
import { readStore } from "./store-down";

// What the incident pages say when Postgres does not answer: the driver's reason, not its stack.

describe("a read of the incident store", () => {
  it("gives its value when the store answers", async () => {
    expect(await readStore(async () => [1, 2])).toEqual({ ok: true, value: [1, 2] });
  });

  it("gives the reason's last line when it does not, so the page can say why without a stack", async () => {
    const error = new Error("\nInvalid `prisma.incident.findMany()` invocation:\n\n\nCan't reach database server at 127.0.0.1:5432");
    expect(await readStore(() => Promise.reject(error))).toEqual({ ok: false, storeDown: "Can't reach database server at 127.0.0.1:5432" });
    expect(await readStore(() => Promise.reject("socket hang up"))).toEqual({ ok: false, storeDown: "socket hang up" });
  });
});
