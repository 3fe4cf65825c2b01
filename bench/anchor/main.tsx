/**
 * The anchor of `npm run bench`: a bare React 19 page with a sign-in-sized form and nothing else,
 * built with the same Vite (and the same compression) as the product.
 */
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function SignIn() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 360, margin: '80px auto' }}>
      <h1>Sign in</h1>
      <form onSubmit={(event) => event.preventDefault()}>
        <label>Username <input value={username} onChange={(e) => setUsername(e.target.value)} /></label>
        <label>Password <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} /></label>
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<StrictMode><SignIn /></StrictMode>);
