import crypto from 'node:crypto';

/**
 * Seals short secrets (TOTP keys) with AES-256-GCM under a server key, so a copy of the
 * database alone does not hand out anyone's second factor. Sealed form: base64url of
 * iv (12) | tag (16) | ciphertext.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = crypto.createHash('sha256').update(`totp-box:${serverSecret}`).digest();
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  open(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** A keyed hash (recovery codes, enrolment tickets): useless without the server key. */
  digest(text: string): string {
    return crypto.createHmac('sha256', this.key).update(text).digest('hex');
  }
}
