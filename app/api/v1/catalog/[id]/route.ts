import { NextResponse } from "next/server";
import { getEntry } from "@/lib/catalog/queries";
import { notFound } from "@/lib/http/json";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const entry = getEntry(id);
  if (!entry) return notFound(`no catalog entry with id "${id}"`, { id });
  return NextResponse.json(entry);
}
