import type { DeviceFileKind } from '@shuili/contract';
import { imageTypeOf } from './image-type';

/** How many first bytes of an upload decide whether its content is what its name says. */
export const HEAD_BYTES = 512;

/** A kind of file the server accepts: its extensions, the type it is served as, its signature. */
export interface AcceptedType {
  extensions: string[];
  contentType: string;
  image: boolean;
  /** Whether the first bytes (up to HEAD_BYTES, fewer for a smaller file) are this type. */
  matches(head: Buffer): boolean;
}

const startsWith = (prefix: number[] | string) => (head: Buffer) => {
  const bytes = typeof prefix === 'string' ? Buffer.from(prefix, 'latin1') : Buffer.from(prefix);
  return head.subarray(0, bytes.length).equals(bytes);
};
const image = (contentType: string, extensions: string[]): AcceptedType => ({
  extensions,
  contentType,
  image: true,
  matches: (head) => imageTypeOf(head) === contentType,
});
const file = (
  contentType: string,
  extensions: string[],
  matches: (head: Buffer) => boolean,
): AcceptedType => ({ extensions, contentType, image: false, matches });

/** Zip containers (docx, xlsx and plain zip) and the old Office compound files. */
const ZIP = startsWith([0x50, 0x4b, 0x03, 0x04]);
const OLE = startsWith([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** Text has no NUL bytes (binary pretending to be .txt does). */
const TEXT = (head: Buffer) => !head.includes(0);

/**
 * Everything an upload may be. Anything else (.html, .svg, .js, .exe, no extension) is refused,
 * and a file whose first bytes are not its extension's type is refused too: a script renamed
 * .png is not an image, an executable renamed .pdf is not a document.
 */
export const ACCEPTED_TYPES: AcceptedType[] = [
  image('image/jpeg', ['jpg', 'jpeg']),
  image('image/png', ['png']),
  image('image/gif', ['gif']),
  image('image/bmp', ['bmp']),
  image('image/webp', ['webp']),
  file('application/pdf', ['pdf'], startsWith('%PDF-')),
  file('text/plain', ['txt'], TEXT),
  file('text/csv', ['csv'], TEXT),
  file('application/msword', ['doc'], OLE),
  file('application/vnd.ms-excel', ['xls'], OLE),
  file('application/vnd.openxmlformats-officedocument.wordprocessingml.document', ['docx'], ZIP),
  file('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ['xlsx'], ZIP),
  file('application/zip', ['zip'], ZIP),
  file('application/acad', ['dwg'], startsWith('AC10')),
];

/** The types a kind of upload accepts (images: images only; files: any accepted type). */
export function typesFor(kind: DeviceFileKind): AcceptedType[] {
  return ACCEPTED_TYPES.filter((type) => kind === 'file' || type.image);
}

/** The accepted type a (sanitised) file name declares for a kind of upload, if any. */
export function declaredTypeOf(fileName: string, kind: DeviceFileKind): AcceptedType | undefined {
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(fileName)?.[1]?.toLowerCase();
  return extension ? typesFor(kind).find((type) => type.extensions.includes(extension)) : undefined;
}

/** The extensions of a kind, for the message that lists what is accepted. */
export function extensionsOf(kind: DeviceFileKind): string {
  return typesFor(kind)
    .flatMap((type) => type.extensions)
    .join(', ');
}

/** A stored type that is safe to send back; anything else (an old row, say) goes as bytes. */
export function downloadTypeOf(storedType: string): string {
  return ACCEPTED_TYPES.some((type) => type.contentType === storedType)
    ? storedType
    : 'application/octet-stream';
}

const MAX_NAME_LENGTH = 120;

/**
 * The name an upload is listed and downloaded under, or undefined when nothing usable is left.
 * Only the last path segment is kept (no "../"), control and bidirectional-override characters
 * go (no "photo\u202Egnp.exe" that reads as .png), characters Windows refuses become "_",
 * leading dots and trailing dots and blanks go, and a long name is cut keeping its extension.
 * The bytes are never stored under this name: storage keys are generated (file-storage.ts).
 */
export function sanitizeFileName(raw: string): string | undefined {
  const lastSegment = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = lastSegment
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (cleaned === '') return undefined;
  const chars = [...cleaned];
  if (chars.length <= MAX_NAME_LENGTH) return cleaned;
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(cleaned)?.[0] ?? '';
  return chars.slice(0, MAX_NAME_LENGTH - extension.length).join('') + extension;
}
