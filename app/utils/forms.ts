import type { z } from "zod";

export type FieldErrors = Record<string, string>;

/** First message per field, keyed by the field name, for showing next to inputs. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

/** Form fields as plain strings (files and repeated keys are not used by our forms). */
export function formObject(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string") out[key] = value;
  return out;
}

/**
 * The posted form as plain strings. A body that is not a form (wrong content type, broken multipart) is the
 * client's mistake: it gets a 400 with a message, never a 500.
 */
export async function readForm(request: Request): Promise<Record<string, string>> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new Response("The form could not be read. Please reload the page and try again.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return formObject(form);
}
