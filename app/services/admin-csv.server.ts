import { csvRow } from "~/domain/csv";

/**
 * A CSV download built on the server and streamed: rows are encoded chunk by chunk as the query yields them, so
 * a large export never sits in memory whole.
 */
export function csvResponse(
  filename: string,
  header: readonly string[],
  chunks: AsyncIterable<readonly (readonly (string | number | null)[])[]> | null,
): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        controller.enqueue(encoder.encode(csvRow(header)));
        if (chunks) {
          for await (const rows of chunks) controller.enqueue(encoder.encode(rows.map(csvRow).join("")));
        }
        controller.close();
      } catch (error) {
        console.error(JSON.stringify({ level: "error", msg: "csv export failed", filename, error: String(error) }));
        controller.error(error);
      }
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** Maps an async iterable of row batches. */
export async function* mapChunks<T, U>(source: AsyncIterable<T[]>, map: (row: T) => U): AsyncIterable<U[]> {
  for await (const rows of source) yield rows.map(map);
}
