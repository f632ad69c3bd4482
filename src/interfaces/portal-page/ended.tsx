import type { Ended } from './api';

const SAYS: Record<Ended | 'unreachable', { title: string; text: string }> = {
  expired: { title: 'This session has expired', text: 'Portal sessions last as long as they were opened for. Ask for a new link.' },
  revoked: { title: 'This session was closed', text: 'Whoever opened it closed it. Ask for a new link.' },
  used: { title: 'This link was already used', text: 'A portal link opens the portal once, in one browser tab. Ask for a new link.' },
  unknown: { title: 'This link opens nothing', text: 'It is not a portal link, or not one of this portal. Ask for a new link.' },
  unreachable: { title: 'The portal cannot be reached', text: 'The service did not answer. Reload the page in a moment.' },
};

/** What the page says when its session opens nothing, and why. */
export function EndedPage({ reason }: { reason: Ended | 'unreachable' }) {
  const { title, text } = SAYS[reason];
  return (
    <main class="ended" data-ended={reason}>
      <h1>{title}</h1>
      <p>{text}</p>
    </main>
  );
}
