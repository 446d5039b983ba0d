// Outside the authority, RFC 3986 allows only these (plus `%HH` escapes); WHATWG URLs may keep `|`, `^`, ...
const URI_UNSAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]|%(?![0-9A-Fa-f]{2})/g;
const escapeUriChar = (char) => (char === '%' ? '%25' : encodeURIComponent(char));
/**
 * An http(s) URL as a strict RFC 3986 URI, or null when the text is not one. User info is dropped:
 * credentials have no place in an export.
 */
export function strictHttpUri(value) {
    const url = value ? URL.parse(value) : null;
    if (!url)
        return null;
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
        return null;
    const rest = `${url.pathname}${url.search}`.replace(URI_UNSAFE, escapeUriChar);
    const fragment = url.hash ? `#${url.hash.slice(1).replace(URI_UNSAFE, escapeUriChar)}` : '';
    return `${url.protocol}//${url.host}${rest}${fragment}`;
}
export function withoutUserInfo(value) {
    const url = value ? URL.parse(value) : null;
    if (!url || (!url.username && !url.password))
        return value;
    url.username = '';
    url.password = '';
    return url.href;
}
//# sourceMappingURL=uri.js.map