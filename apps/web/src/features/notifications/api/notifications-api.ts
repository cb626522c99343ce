import {
  type NotificationPage,
  type NotificationRecord,
  type NotificationsRead,
  notificationPageSchema,
  notificationsReadSchema,
} from '@fvg/contracts';
import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Query keys of the signed-in user's notifications (one list per session). */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
};

export const NOTIFICATION_PAGE_SIZE = 20;

export function notificationsOptions() {
  return infiniteQueryOptions({
    queryKey: notificationKeys.list(),
    queryFn: ({ pageParam, signal }) =>
      api.get<NotificationPage>(
        `notifications?limit=${NOTIFICATION_PAGE_SIZE}${pageParam ? `&after=${encodeURIComponent(pageParam)}` : ''}`,
        { schema: notificationPageSchema, signal },
      ),
    initialPageParam: '' as string,
    getNextPageParam: (page) => page.next ?? undefined,
  });
}

type Feed = InfiniteData<NotificationPage>;

/** All loaded notifications, newest first, without duplicates. */
export function flattenNotifications(data: Feed | undefined): NotificationRecord[] {
  if (!data) return [];
  const seen = new Set<string>();
  return data.pages.flatMap((p) => p.items).filter((n) => !seen.has(n.id) && Boolean(seen.add(n.id)));
}

/** The unread count: the newest page's answer (every page carries the count at its time). */
export const unreadOf = (data: Feed | undefined): number => data?.pages[0]?.unread ?? 0;

/** A notification that arrived live, put on top of the list without a refetch. */
export function addArrived(queryClient: QueryClient, n: NotificationRecord): void {
  const data = queryClient.getQueryData<Feed>(notificationKeys.list());
  if (!data?.pages[0]) {
    void queryClient.invalidateQueries({ queryKey: notificationKeys.list() });
    return;
  }
  if (data.pages.some((p) => p.items.some((x) => x.id === n.id))) return;
  const [first, ...rest] = data.pages as [NotificationPage, ...NotificationPage[]];
  queryClient.setQueryData<Feed>(notificationKeys.list(), {
    ...data,
    pages: [{ ...first, items: [n, ...first.items], unread: first.unread + (n.readAt ? 0 : 1) }, ...rest],
  });
}

/** The cache after reading: the given ids read, the server's unread count. */
function applyRead(queryClient: QueryClient, ids: ReadonlySet<string>, read: NotificationsRead) {
  const at = new Date().toISOString();
  queryClient.setQueryData<Feed>(notificationKeys.list(), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((p, i) => ({
            ...p,
            unread: i === 0 ? read.unread : p.unread,
            items: p.items.map((n) => (!n.readAt && ids.has(n.id) ? { ...n, readAt: at } : n)),
          })),
        }
      : data,
  );
}

/** Read elsewhere (another tab, a toast): the count now, and the list fetched again for the read marks. */
export function applyReadElsewhere(queryClient: QueryClient, read: NotificationsRead): void {
  const data = queryClient.getQueryData<Feed>(notificationKeys.list());
  if (data?.pages[0]?.unread === read.unread) return;
  void queryClient.invalidateQueries({ queryKey: notificationKeys.list() });
}

export function markNotificationRead(id: string) {
  return api.post(`notifications/${encodeURIComponent(id)}/read`, undefined, {
    schema: notificationsReadSchema,
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => markNotificationRead(id),
    onSuccess: (read, id) => applyRead(queryClient, new Set([id]), read),
  });
}

/** Reads everything up to `upTo`, the newest one on screen: one that arrives meanwhile stays unread. */
export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (upTo: string | undefined) =>
      api.post('notifications/read-all', upTo ? { upTo } : {}, { schema: notificationsReadSchema }),
    onSuccess: (read, upTo) => {
      const items = flattenNotifications(queryClient.getQueryData<Feed>(notificationKeys.list()));
      const from = upTo ? items.findIndex((n) => n.id === upTo) : 0;
      applyRead(queryClient, new Set(items.slice(Math.max(from, 0)).map((n) => n.id)), read);
    },
  });
}
