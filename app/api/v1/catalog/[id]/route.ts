import { z } from "zod";
import { readCatalogEntry } from "@/lib/catalog/search";
import { route } from "@/lib/http/route";

export const GET = route({
  role: "viewer", params: z.object({ id: z.string() }), run: ({ params }) => readCatalogEntry(params.id) });
