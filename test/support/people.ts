import { expect } from 'vitest';
import type { TestApp } from './app.js';

/** Signs a person in through the API and returns the cookie header their requests carry. */
export async function signIn(t: TestApp, email: string, password: string): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/api/v1/auth/login',
    key: null,
    body: { email, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  const cookie = [response.headers['set-cookie']].flat()[0] as string;
  return cookie.split(';')[0];
}

/** Invites a member with the platform key and accepts the invitation; returns their user id. */
export async function addMember(
  t: TestApp,
  orgId: string,
  member: { email: string; name: string; role: string; expiresAt?: string; frameworkIds?: string[] },
  password = 'correct horse battery',
): Promise<string> {
  const invited = await t.request({ method: 'POST', url: `/api/v1/orgs/${orgId}/members`, body: member });
  expect(invited.statusCode, invited.body).toBe(201);
  const { userId, invitation } = invited.json();
  const accepted = await t.request({
    method: 'POST',
    url: '/api/v1/auth/invitations/accept',
    key: null,
    body: { token: invitation.token, password },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  return userId;
}
