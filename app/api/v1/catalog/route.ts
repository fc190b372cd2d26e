import { CatalogSearch, searchCatalog } from "@/lib/catalog/search";
import { route } from "@/lib/http/route";

export const GET = route({
  role: "viewer", search: CatalogSearch, run: ({ query }) => searchCatalog(query) });
