/**
 * Speech and images through an OpenAI-compatible API with the `openai` SDK (the provider's own client, so its base
 * URL, key, guarded fetch and retries apply): POST /audio/speech answers the audio bytes, POST /images/generations
 * base64 images or URLs. Errors are mapped by the provider (OpenAiCompatibleProvider.mapError).
 */
import type OpenAI from 'openai';
import type { ImageGenerateParamsNonStreaming } from 'openai/resources/images';
import type { ImageRequest, ImageResponse, SpeechRequest, SpeechResponse } from './types';

export async function speechVia(client: OpenAI, provider: string, req: SpeechRequest): Promise<SpeechResponse> {
  const res = await client.audio.speech.create(
    {
      model: req.model,
      voice: req.voice,
      input: req.input,
      response_format: req.format,
      speed: req.speed,
      ...(req.instructions ? { instructions: req.instructions } : {}),
    },
    { signal: req.signal },
  );
  return { audio: new Uint8Array(await res.arrayBuffer()), format: req.format, model: req.model, provider };
}

export async function imagesVia(client: OpenAI, provider: string, req: ImageRequest): Promise<ImageResponse> {
  const body: ImageGenerateParamsNonStreaming = {
    model: req.model,
    prompt: req.prompt,
    n: req.n,
    ...(req.size ? { size: req.size } : {}),
    ...(req.quality ? { quality: req.quality as ImageGenerateParamsNonStreaming['quality'] } : {}),
    ...(req.responseFormat ? { response_format: req.responseFormat } : {}),
  };
  const res = await client.images.generate(body, { signal: req.signal });
  return {
    images: (res.data ?? []).map((d) => ({
      ...(d.b64_json ? { b64: d.b64_json } : {}),
      ...(d.url ? { url: d.url } : {}),
      ...(d.revised_prompt ? { revisedPrompt: d.revised_prompt } : {}),
    })),
    model: req.model,
    provider,
  };
}
