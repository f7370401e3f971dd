import { useState } from 'react';
import defaultAvatar from './default-avatar.svg';

/**
 * The user's avatar; spec §8: an address that fails to load (or none) shows the default image.
 * Mount it with `key={src}` so a new address gets a fresh try.
 */
export function AvatarPreview({
  src,
  alt,
  size = 96,
}: {
  src?: string | null;
  alt: string;
  size?: number;
}) {
  const [failed, setFailed] = useState(false);
  const shown = !src || failed ? defaultAvatar : src;
  return (
    <img
      src={shown}
      alt={alt}
      width={size}
      height={size}
      style={{ borderRadius: '50%', objectFit: 'cover' }}
      referrerPolicy="no-referrer"
      data-testid="avatar-preview"
      data-fallback={shown === defaultAvatar}
      onError={() => setFailed(true)}
    />
  );
}
