import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { HEAD_BYTES, type AcceptedType } from './upload-policy';

/** Why an upload was stopped: a message key and its parameters, for a 400 on the file. */
export class UploadRejected extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

/**
 * Checks an upload as it streams through, before anything is kept: its first bytes must be the
 * declared type, and it stops with an error the moment it passes the size limit, so an oversize
 * or disguised upload is never buffered whole nor stored (the storage discards its partial file
 * when the stream fails). An empty upload fails at its end.
 */
export class UploadGuard extends Transform {
  /** Bytes seen so far. */
  size = 0;
  private head: Buffer[] = [];
  private headSize = 0;
  private checked = false;

  constructor(
    private readonly type: AcceptedType,
    private readonly maxBytes: number,
    private readonly maxMb: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes)
      return done(new UploadRejected('validation.fileTooLarge', { max: this.maxMb }));
    if (this.checked) return done(null, chunk);
    // Held back until the head is complete: nothing unchecked reaches the storage.
    this.head.push(chunk);
    this.headSize += chunk.length;
    if (this.headSize < HEAD_BYTES) return done();
    this.release(done);
  }

  override _flush(done: TransformCallback): void {
    if (this.size === 0) return done(new UploadRejected('validation.required'));
    if (this.checked) return done();
    this.release(done);
  }

  private release(done: TransformCallback): void {
    const held = Buffer.concat(this.head);
    this.head = [];
    if (!this.type.matches(held.subarray(0, HEAD_BYTES)))
      return done(
        new UploadRejected(
          this.type.image ? 'validation.notAnImage' : 'validation.fileContentMismatch',
          { type: this.type.extensions.join('/') },
        ),
      );
    this.checked = true;
    done(null, held);
  }
}

/** Bytes a refused upload may still send before its connection is cut (so the client sees the 400). */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * Reads and drops the rest of a refused upload (up to DRAIN_LIMIT, then the socket is closed), so
 * the client, still sending, receives the refusal instead of a reset connection.
 */
export function discard(body: Readable): void {
  let drained = 0;
  body.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT) body.destroy();
  });
  body.resume();
}

/** Runs a request body through a guard; a failing guard is detached and the rest discarded. */
export function guarded(body: Readable, guard: UploadGuard): UploadGuard {
  body.on('error', (error) => guard.destroy(error));
  guard.on('error', () => {
    body.unpipe(guard);
    discard(body);
  });
  return body.pipe(guard);
}
