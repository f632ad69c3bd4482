// Style sheets imported for esbuild to bundle into portal.css; they export nothing.
declare module '*.css';
