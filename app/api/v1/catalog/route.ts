import { CatalogSearch, searchCatalog } from "@/lib/catalog/search";
import { route } from "@/lib/http/route";

export const GET = route({ search: CatalogSearch, run: ({ query }) => searchCatalog(query) });
