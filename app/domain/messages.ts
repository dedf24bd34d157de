/** Texts from the spec's error catalogue (section 8) that more than one place shows or checks. */
export const MESSAGES = {
  invalidCredentials: "Invalid login credentials",
  alreadyRegistered: "This email is already registered. Please check your inbox for the confirmation link.",
  signupSuccess: "Sign-up successful! Please check your email to verify your account.",
  signupFailed: "An unexpected error occurred during sign up. Please try again.",
  resetSent: "If an account with that email exists, we have sent password reset instructions.",
  emptyEmail: "Please enter your email address.",
  clipNotFound: "Could not find the requested clip. It may have been deleted.",
  noClipId: "No clip ID provided.",
  invalidClipVideoUrl: "The video URL associated with this clip is invalid.",
} as const;

/** The dashboard's error box when the recent clips cannot be read: the spec's generic text, then what to do. */
export const RECENT_CLIPS_FAILED_MESSAGE =
  "An unexpected error occurred. Your recent clips could not be loaded; please reload the page.";
