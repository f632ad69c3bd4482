# Production image of the API (and, from the webhooks issue on, the worker).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Exactly the lockfile: npm ci refuses one that package.json disagrees with.
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --omit=optional

FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER node
EXPOSE 3000
# A 256 MB heap and 16 MB young generation keep each process under 300 MB resident (docs/performance.md).
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=16", "--no-allocation-site-pretenuring", "dist/main.js"]
