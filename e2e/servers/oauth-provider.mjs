// A local OAuth 2.0 provider shaped like GitHub's, for the social sign-in test: the authorize
// step approves at once and redirects back; the token step checks the PKCE verifier.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.env.E2E_OAUTH_PORT);
const challenges = new Map();

function json(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

createServer((request, response) => {
  const url = new URL(request.url, `http://127.0.0.1:${port}`);
  if (url.pathname === '/authorize') {
    const code = `code-${challenges.size + 1}`;
    challenges.set(code, url.searchParams.get('code_challenge'));
    const back = new URL(url.searchParams.get('redirect_uri'));
    back.searchParams.set('code', code);
    back.searchParams.set('state', url.searchParams.get('state'));
    response.writeHead(302, { location: back.toString() });
    response.end();
    return;
  }
  if (url.pathname === '/token' && request.method === 'POST') {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      const verifier = form.get('code_verifier') ?? '';
      const computed = createHash('sha256').update(verifier).digest('base64url');
      if (challenges.get(form.get('code')) !== computed) {
        json(response, 400, { error: 'invalid_grant' });
        return;
      }
      json(response, 200, { access_token: 'e2e-access', token_type: 'bearer' });
    });
    return;
  }
  if (url.pathname === '/user') {
    json(response, 200, { id: 777, login: 'octo-e2e', name: 'Octo E2E' });
    return;
  }
  if (url.pathname === '/user/emails') {
    json(response, 200, [{ email: 'octo-e2e@example.com', primary: true, verified: true }]);
    return;
  }
  json(response, 404, { error: 'not found' });
}).listen(port, '127.0.0.1');
