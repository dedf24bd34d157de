/**
 * Password rules as NIST SP 800-63B puts them: at least 8 characters, long passphrases welcome (up to 128),
 * no composition rules, and the most common passwords refused.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

// The most common passwords of 8+ characters in public breach corpora (shorter ones fail the length rule anyway).
const COMMON = new Set(
  `password password1 password123 password12 passw0rd p@ssw0rd p@ssword 12345678 123456789 1234567890 12345678910
  11111111 00000000 88888888 87654321 11223344 12341234 123123123 112233445566 qwertyuiop qwerty123 qwerty12
  qwertyui 1q2w3e4r 1q2w3e4r5t 1qaz2wsx zaq12wsx zaq1zaq1 qazwsxedc asdfghjkl asdfasdf abcd1234 abc12345 abcdefgh
  iloveyou iloveyou1 princess sunshine football football1 baseball basketball superman batman123 starwars whatever
  trustno1 welcome1 welcome123 letmein1 letmein123 computer internet monkey123 dragon123 master123 shadow123
  michael1 jennifer jordan23 charlie1 mustang1 access14 liverpool chelsea1 arsenal1 samsung1 google123 freedom1
  changeme changeme1 administrator admin123 admin1234 root1234 secret123 test1234 testing123 default1 guest123
  qwerty1234 1234qwer q1w2e3r4 q1w2e3r4t5 a1b2c3d4 aa123456 asd12345 zxcvbnm1 zxcvbnm123 987654321 123654789
  696969696 777777777 999999999 555555555 666666666 789456123 147258369 159753123 123qweasd qweasdzxc
  clipcut1 clipcut123 youtube1 youtube123`
    .split(/\s+/)
    .filter(Boolean),
);

/** The first rule the password breaks, as a message for the user, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length === 0) return "Password cannot be empty.";
  if (length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters.`;
  if (length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters.`;
  if (COMMON.has(password.toLowerCase())) return "This password is too common. Please choose a less predictable one.";
  if (/^(.)\1+$/.test(password)) return "This password is too easy to guess. Please choose a less predictable one.";
  return null;
}
