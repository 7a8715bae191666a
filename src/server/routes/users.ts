import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createUserBodySchema,
  updateUserBodySchema,
  userListSchema,
  userSchema,
} from '../../shared/api/users.ts';
import { requesterOf, scopeOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { errorResponses } from './responses.ts';
import { createUser, listUsers, updateUser } from '../services/users.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

export function userRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/users',
      {
        config: { access: 'users.manage' },
        schema: {
          summary: 'List user accounts',
          tags: ['users'],
          response: { 200: userListSchema, ...errors },
        },
      },
      async (request) => ({ items: await listUsers(context, scopeOf(request)) }),
    );

    app.post(
      '/api/users',
      {
        config: { access: 'users.manage' },
        schema: {
          summary: 'Create a user account',
          tags: ['users'],
          body: createUserBodySchema,
          response: { 201: userSchema, ...errors },
        },
      },
      async (request, reply) => {
        const user = await createUser(context, requesterOf(request), request.body);
        return reply.status(201).send(user);
      },
    );

    app.patch(
      '/api/users/:id',
      {
        config: { access: 'users.manage' },
        schema: {
          summary: 'Change a display name or role, disable an account, or reset its password',
          tags: ['users'],
          params: z.object({ id: z.string() }),
          body: updateUserBodySchema,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => updateUser(context, requesterOf(request), request.params.id, request.body),
    );
  };
}
