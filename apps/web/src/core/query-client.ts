import { QueryClient } from '@tanstack/react-query';
import { useSessionStore } from './session-store';

/**
 * The console's query cache. It lives in the console's chunk, not the sign-in page's, and is
 * emptied whenever the session is reset, so no user's data outlives their session.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The http client already reported a failure; retrying would repeat the toast.
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});

useSessionStore.subscribe((state, previous) => {
  if (state.status === 'empty' && previous.status !== 'empty') queryClient.clear();
});
