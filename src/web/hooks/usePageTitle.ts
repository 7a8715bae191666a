import { useDocumentTitle } from '@mantine/hooks';
import { productTexts } from '../../shared/texts.ts';

/** Names the view in the browser tab and for screen readers, since client routes do not load a page. */
export function usePageTitle(view: string): void {
  useDocumentTitle(`${view} · ${productTexts.systemName}`);
}
