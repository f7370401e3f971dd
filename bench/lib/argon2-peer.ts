// The login benchmark's peer: bare argon2id verifications with the server's own parameters, one
// after another on one core. No sign-in can be faster than this on that core.
import { hashPassword, verifyPassword } from '../../apps/server/src/modules/uaa/password-hasher';

const seconds = Number(process.argv[2] ?? 5);
const hash = await hashPassword('admin123');
let count = 0;
const endAt = performance.now() + seconds * 1000;
const started = performance.now();
while (performance.now() < endAt) {
  await verifyPassword(hash, 'admin123');
  count += 1;
}
console.log(
  JSON.stringify({ verificationsPerSecond: count / ((performance.now() - started) / 1000) }),
);
