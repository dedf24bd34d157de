/**
 * Password rules for new passwords (sign-up, reset, change), as OWASP ASVS 4 level 2 (2.1.1) and NIST SP 800-63B
 * put them: at least 12 characters, long passphrases welcome (up to 128), no composition rules, and passwords known
 * from breaches or trivially guessable refused. Existing passwords keep working at sign-in whatever their length.
 */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

// Passwords of 12+ characters that recur at the top of public breach corpora (shorter ones fail the length rule).
// Compared case-insensitively, with spaces removed.
const BREACHED = new Set(
  `password1234 password12345 password123456 password1234567 passwordpassword password123! password2020 password2021
  password2022 password2023 password2024 password2025 passw0rd1234 p@ssw0rd1234 p@ssword1234 mypassword123
  123456789012 1234567890123 12345678901234 123456123456 123123123123 111111111111 000000000000 121212121212
  123456654321 987654321987 147258369147 789456123789 159753159753 1q2w3e4r5t6y 1q2w3e4r5t6y7u 1qaz2wsx3edc
  1qaz2wsx3edc4rfv zaq12wsxcde3 qazwsxedcrfv qweasdzxc123 qwertyuiop12 qwertyuiop123 qwertyuiopas qwerty123456
  qwertyqwerty asdfghjkl123 asdfasdfasdf zxcvbnm12345 abcdefghijkl abcd12345678 abc123abc123 iloveyou1234
  iloveyouforever iloveyousomuch letmein12345 welcome12345 welcome123456 trustno11234 administrator
  administrator1 changeme1234 changemenow1 default12345 football1234 baseball1234 basketball12 superman1234
  princess1234 sunshine1234 starwars1234 whatever1234 michael12345 jennifer1234 charlie12345 liverpool123
  chelsea12345 manchesterunited 1234qwerasdf q1w2e3r4t5y6 a1b2c3d4e5f6 aa1234567890 monkey123456
  dragon123456 master123456 shadow123456 secret123456 test12345678 testing12345 computer1234 internet1234
  correcthorsebatterystaple thequickbrownfox qwertyuiopasdfghjkl clipcut12345 clipcut123456 clipcutclipcut
  youtube12345 youtube123456 google123456`
    .split(/\s+/)
    .filter(Boolean),
);

const KEYBOARD_ROWS = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm", "abcdefghijklmnopqrstuvwxyz"];

/** A run along a keyboard row or the alphabet (either direction), e.g. "123456789012" or "qwertyuiopas". */
function isSequence(text: string): boolean {
  const chars = [...text];
  let along = 0;
  for (let i = 1; i < chars.length; i++) {
    const pair = `${chars[i - 1]}${chars[i]}`;
    const reversed = `${chars[i]}${chars[i - 1]}`;
    if (KEYBOARD_ROWS.some((row) => row.includes(pair) || row.includes(reversed))) along++;
  }
  return along >= chars.length - 2;
}

/** A short unit repeated, e.g. "abcabcabcabc" or "hellohellohello". */
function isRepetition(text: string): boolean {
  return /^(.{1,6})\1+.{0,3}$/u.test(text);
}

/** The first rule the password breaks, as a message for the user, or null when it is acceptable. */
export function passwordProblem(password: string, context: { email?: string } = {}): string | null {
  const length = [...password].length;
  if (length === 0) return "Password cannot be empty.";
  if (length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters.`;
  if (length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters.`;
  const folded = password.toLowerCase().replace(/\s+/g, "");
  if (BREACHED.has(folded)) return "This password is too common. Please choose a less predictable one.";
  const local = context.email?.split("@")[0]?.toLowerCase();
  if (
    isRepetition(folded) ||
    isSequence(folded) ||
    (context.email && folded.includes(context.email.toLowerCase())) ||
    (local && local.length >= 4 && folded.replace(/[\d\W_]+$/u, "") === local)
  ) {
    return "This password is too easy to guess. Please choose a less predictable one.";
  }
  return null;
}
