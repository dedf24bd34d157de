import { Form } from "@remix-run/react";

/** Ban, unban or sign out everywhere: one small POST form, with a confirmation where it says so. */
export function ModerationButton({
  intent,
  userId,
  label,
  confirmText,
  danger,
  ariaLabel,
}: {
  intent: "ban" | "unban" | "signout";
  userId: string;
  label: string;
  confirmText?: string;
  danger?: boolean;
  ariaLabel: string;
}) {
  return (
    <Form
      method="post"
      preventScrollReset
      onSubmit={(event) => {
        if (confirmText && !window.confirm(confirmText)) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="userId" value={userId} />
      <button
        type="submit"
        aria-label={ariaLabel}
        className={`text-sm font-semibold hover:underline ${danger ? "text-red-700" : "text-brand-700"}`}
      >
        {label}
      </button>
    </Form>
  );
}
