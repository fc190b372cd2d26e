import { readDemo } from "@/lib/demo/control";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route({
  role: "viewer",
  run: readDemo,
});
