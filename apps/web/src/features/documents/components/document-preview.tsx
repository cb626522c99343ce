import { canPreviewInline, type Document } from '@fvg/contracts';
import { Alert, Box, Button, EmptyState, Group, Loader, Stack, Text } from '@mantine/core';
import { IconDownload, IconEyeOff, IconPhotoOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { ErrorState } from '../../../components/error-state.tsx';
import { documentContentOptions } from '../api/documents-api.ts';
import { contentTypeLabel } from './document-meta.ts';
import { loadPdfViewer } from './load-pdf-viewer.ts';

// pdf.js and the viewer come with the first PDF shown, not with the documents screens.
const PdfViewer = lazy(loadPdfViewer);

/** An object URL for a blob while mounted; revoked when the blob changes or the component goes. */
export function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) {
      setUrl(undefined);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

function Loading() {
  return (
    <Group justify="center" p="xl" data-testid="preview-loading">
      <Loader size="sm" />
      <Text size="sm" c="dimmed">
        Loading the preview…
      </Text>
    </Group>
  );
}

function ImagePreview({
  blob,
  fileName,
  onDownload,
}: {
  blob: Blob;
  fileName: string;
  onDownload: () => void;
}) {
  const url = useObjectUrl(blob);
  const [broken, setBroken] = useState(false);
  // TIFF is accepted and served inline, but most browsers cannot draw it.
  if (broken)
    return (
      <Alert
        color="gray"
        variant="light"
        icon={<IconPhotoOff aria-hidden />}
        title="This browser cannot show this image"
        data-testid="image-error"
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">Download it to open it with another program.</Text>
          <Button size="xs" leftSection={<IconDownload size={14} aria-hidden />} onClick={onDownload}>
            Download
          </Button>
        </Stack>
      </Alert>
    );
  if (!url) return <Loading />;
  return (
    <Box
      style={{
        overflow: 'auto',
        maxHeight: '70dvh',
        textAlign: 'center',
        background: 'var(--mantine-color-gray-1)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      <img
        src={url}
        alt={fileName}
        onError={() => setBroken(true)}
        style={{ maxWidth: '100%', height: 'auto' }}
        data-testid="image-preview"
      />
    </Box>
  );
}

export interface DocumentPreviewProps {
  document: Document;
  onDownload: () => void;
}

/**
 * A document shown in place: PDFs with pdf.js, images as images (both read with the token as a
 * blob, shown through an object URL); other types say so and offer the download.
 */
export function DocumentPreview({ document, onDownload }: DocumentPreviewProps) {
  const previewable = canPreviewInline(document.contentType);
  const content = useQuery({ ...documentContentOptions(document), enabled: previewable });

  if (!previewable)
    return (
      <EmptyState
        icon={<IconEyeOff size={28} stroke={1.5} aria-hidden />}
        withIndicatorBackground
        title="No preview for this type"
        description={`${contentTypeLabel(document.contentType)} files open in their own program.`}
        py="xl"
        data-testid="preview-none"
      >
        <Button leftSection={<IconDownload size={16} aria-hidden />} onClick={onDownload}>
          Download {document.fileName}
        </Button>
      </EmptyState>
    );
  if (content.isError)
    return (
      <ErrorState
        title="The preview could not be loaded"
        error={content.error}
        onRetry={() => void content.refetch()}
      />
    );
  if (!content.data) return <Loading />;
  if (document.contentType === 'application/pdf')
    return (
      <Suspense fallback={<Loading />}>
        <PdfViewer data={content.data} fileName={document.fileName} />
      </Suspense>
    );
  return <ImagePreview blob={content.data} fileName={document.fileName} onDownload={onDownload} />;
}
