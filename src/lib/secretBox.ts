import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A secret sealed with AES-256-GCM: readable only with the key whose ID it carries. */
export interface SealedSecret {
  /** First 8 bytes of SHA-256 of the key, in hex: tells a changed key from a damaged secret. */
  keyId: string;
  iv: string;
  tag: string;
  data: string;
}

export class SecretKeyMismatchError extends Error {
  override name = 'SecretKeyMismatchError';
}

/** Seals and opens short secrets under one AES-256 key (a fresh 96-bit IV per seal). */
export class SecretBox {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('an AES-256 key is 32 bytes');
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 16);
  }

  seal(plain: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return {
      keyId: this.keyId,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
  }

  open(sealed: SealedSecret): string {
    if (sealed.keyId !== this.keyId)
      throw new SecretKeyMismatchError(`sealed under key ${sealed.keyId}, not the configured key ${this.keyId}`);
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  }
}
