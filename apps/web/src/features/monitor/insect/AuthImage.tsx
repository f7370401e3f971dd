import { PictureOutlined } from '@ant-design/icons';
import { Skeleton } from 'antd';
import type { CSSProperties } from 'react';
import { useImageUrl } from './use-image-url';

export interface AuthImageProps {
  /** The call serving the bytes by `id` (device file download, species picture). */
  url: string;
  id: string | undefined;
  /** Changes when the picture does (its upload time): fetched again then. */
  version?: string | null;
  alt: string;
  width: number;
  height: number;
  testId?: string;
  style?: CSSProperties;
}

/** A picture served to signed-in callers only, at a fixed size, with a placeholder when absent. */
export function AuthImage({ url, id, version, alt, width, height, testId, style }: AuthImageProps) {
  const src = useImageUrl(url, id, version);
  const box: CSSProperties = { width, height, borderRadius: 4, ...style };
  if (src === undefined) return <Skeleton.Image active style={box} />;
  if (src === null)
    return (
      <div
        data-testid={testId}
        data-empty="true"
        role="img"
        aria-label={alt}
        style={{
          ...box,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          background: '#f5f5f5',
          color: '#bfbfbf',
        }}
      >
        <PictureOutlined style={{ fontSize: Math.min(width, height) / 3 }} />
      </div>
    );
  return (
    <img
      data-testid={testId}
      src={src}
      alt={alt}
      width={width}
      height={height}
      style={{ ...box, objectFit: 'cover', display: 'block' }}
    />
  );
}
