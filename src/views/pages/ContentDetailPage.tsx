import { useParams } from '@tanstack/react-router';
import { EmptyStatePage } from '../shared/EmptyState';

export function ContentDetailPage() {
  const { contentType, id } = useParams({ strict: false }) as { contentType?: string; id?: string };
  return <EmptyStatePage title={`Content detail: ${contentType ?? ''} ${id ?? ''}`.trim()} />;
}
