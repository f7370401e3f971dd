import Cookies from 'js-cookie';

interface CookieOptions {
  /** Days until the cookie expires; omitted = a session cookie. */
  expires?: number;
}

function baseAttributes(): Cookies.CookieAttributes {
  // Secure only over https so plain-http local runs (npm start) keep working.
  return { path: '/', sameSite: 'lax', secure: window.location.protocol === 'https:' };
}

/** Reads a cookie the browser sends to the whole site. */
export function getCookie(name: string): string | undefined {
  return Cookies.get(name);
}

/** Writes a site-wide cookie with the app's attributes. */
export function setCookie(name: string, value: string, options: CookieOptions = {}): void {
  Cookies.set(name, value, { ...baseAttributes(), ...options });
}

/** Removes a cookie written by setCookie. */
export function removeCookie(name: string): void {
  Cookies.remove(name, baseAttributes());
}
