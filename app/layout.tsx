import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { AuthGate } from '@/components/auth/auth-gate';
import { Toaster } from '@/components/ui/toast';
import './globals.css';

export const metadata: Metadata = {
  title: 'PaiFlow',
  description: 'Open-source visual AI-workflow platform',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="font-sans">
        <AuthGate>{children}</AuthGate>
        <Toaster />
      </body>
    </html>
  );
}
