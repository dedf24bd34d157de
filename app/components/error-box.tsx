/** The signed-in area's error box: the error's text, or the generic one. */
export function ErrorBox({ error }: { error?: unknown }) {
  const text =
    error instanceof Error && error.message
      ? error.message
      : typeof error === "string" && error
        ? error
        : "An unexpected error occurred.";
  return (
    <p className="alert-error" role="alert">
      {text}
    </p>
  );
}
