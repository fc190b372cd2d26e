import { expect, test, type APIRequestContext } from "@playwright/test";
import { sameOrigin, scenario, shot } from "./helpers";
import { DOCTOR_CONFIG_UNSAFE as DOCTOR } from "../test/plugin-reports";

// An on-call pastes what the KMS plugin's own doctor printed into an incident on the demo cluster, and the page
// shows the first suspect change. Against the in-process demo cluster with fast incident rules (playwright.config.ts).

const SCENARIO = "kms-plugin-unavailable";

test.afterEach(async ({ request }) => {
  await request.delete(`/api/v1/demo/scenarios/${SCENARIO}`, sameOrigin());
});

interface Row {
  id: number;
  topSuspect: { id: string; title: string } | null;
}

async function unresolved(request: APIRequestContext): Promise<Row[]> {
  return (await (await request.get("/api/v1/incidents?cluster=demo&status=open,acknowledged")).json()).incidents;
}

test("a pasted doctor report moves the cause it names to the top of the incident's suspects", async ({ page, request }) => {
  test.setTimeout(90_000);
  // What earlier specs left open would take this incident's signals in (grouping by cause or time): resolve it. The
  // incident the scenario opens (or reopens) is then found by its first suspect.
  for (const { id } of await unresolved(request))
    await request.post(`/api/v1/incidents/${id}/resolve`, sameOrigin({ resolution: "left over from earlier specs" }));

  await scenario(request, SCENARIO);
  // The plugin is down: whichever cause the signals and the logs read when it opened put first, it is not the
  // unsafe configuration file the doctor report below names.
  let id = 0;
  await expect
    .poll(
      async () => {
        const row = (await unresolved(request)).find((r) => r.topSuspect && r.topSuspect.id !== "kms-config-permissions-unsafe");
        id = row?.id ?? 0;
        return id;
      },
      { timeout: 30_000, message: "an incident of the plugin down, with a first suspect" },
    )
    .toBeGreaterThan(0);

  await page.goto(`/incidents/${id}`);
  const suspects = page.getByTestId("suspects").locator("li");
  await expect(suspects.first()).not.toHaveAttribute("data-suspect", "kms-config-permissions-unsafe");
  const box = page.getByTestId("pasted-evidence");

  // Keyboard only: the labelled box, then Tab to the button and Enter.
  const field = box.getByLabel("Add what you found");
  await field.focus();
  await field.fill(DOCTOR);
  await page.keyboard.press("Tab");
  await expect(box.getByRole("button", { name: "Add to the incident" })).toBeFocused();
  await page.keyboard.press("Enter");

  // The answer is read out by the status region: what the paste showed and what it moved.
  const status = box.getByRole("status");
  await expect(status).toContainText(/This moved Plugin configuration file permissions unsafe to the top \(it was [^)]+\)\./);
  await expect(status).toContainText("A file or directory the plugin uses has unsafe permissions or is a symlink: “file permissions unsafe”");
  await expect(status).toContainText("5 lines kept.");
  await expect(field).toHaveValue("");

  // The page follows: the new first suspect, with the paste as its evidence, and the paste listed with what it showed.
  await expect(suspects.first()).toHaveAttribute("data-suspect", "kms-config-permissions-unsafe");
  await expect(suspects.first()).toContainText('the text says "file permissions unsafe"');
  await expect(suspects.first()).toContainText("on the output pasted by local");
  const listed = box.getByTestId("evidence-list").locator("li").first();
  await expect(listed).toContainText("the output pasted by local");
  await expect(listed).toContainText("A file or directory the plugin uses has unsafe permissions or is a symlink");
  await listed.getByText(/What was kept/).click();
  await expect(listed.locator("pre")).toContainText("[fail] config.validate: Config validation - config invalid");
  await expect(page.getByTestId("timeline").locator('[data-kind="evidence_added"]').first()).toContainText("the output pasted by local");
  await shot(page, "53-incident-pasted-evidence");

  // An empty paste is refused beside the field, and what was typed (nothing) stays.
  await box.getByRole("button", { name: "Add to the incident" }).click();
  await expect(box.getByRole("alert")).toHaveText("must not be empty");
  await expect(field).toHaveAttribute("aria-invalid", "true");

  await request.post(`/api/v1/incidents/${id}/resolve`, sameOrigin({ resolution: "config file mode restored to 0600" }));
});
