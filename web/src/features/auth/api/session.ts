// What the server answers when a sign-in step succeeds. The token in it is for programmatic
// clients; the browser's session is the HttpOnly cookie set with the same answer, and the app
// never stores the token (lib/auth.ts).
import type { User } from '@/lib/auth';

export interface SignedIn {
  token: string;
  user: User;
  message?: string;
}
