import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'run' | 'dark';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-indigo-600 text-white hover:bg-indigo-500 disabled:bg-indigo-300',
  run: 'bg-emerald-600 text-white hover:bg-emerald-500 disabled:bg-emerald-800/50 disabled:text-white/60',
  secondary: 'border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50 disabled:text-zinc-400',
  ghost: 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 disabled:text-zinc-300',
  danger: 'bg-red-600 text-white hover:bg-red-500 disabled:bg-red-300',
  dark:
    'border border-zinc-700 bg-zinc-800 text-zinc-100 hover:bg-zinc-700 disabled:text-zinc-500 ' +
    'disabled:hover:bg-zinc-800',
};

export function Button({
  variant = 'secondary',
  size = 'md',
  className = '',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: 'sm' | 'md' }) {
  const sz = size === 'sm' ? 'h-7 px-2.5 text-xs' : 'h-8 px-3 text-sm';
  return (
    <button
      type="button"
      {...rest}
      className={
        'inline-flex items-center justify-center gap-1.5 whitespace-nowrap rounded-md font-medium transition-colors ' +
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 ' +
        `disabled:cursor-not-allowed ${sz} ${VARIANTS[variant]} ${className}`
      }
    />
  );
}
