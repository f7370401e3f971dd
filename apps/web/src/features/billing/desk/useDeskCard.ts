import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { deskApi, DESK_KEYS } from './desk-api';
import type { DeskReaderHandle } from './use-desk-reader';

/**
 * The card the desk works on: the one placed on the reader (followed as cards come and go), or
 * a number the cashier typed; and the server's view of it (state, household, money, writes).
 */
export function useDeskCard(desk: DeskReaderHandle) {
  const [chosen, setChosen] = useState({ cardNo: desk.cardOnReader, onReader: desk.cardOnReader });
  // A card placed on the reader becomes the one worked on (adjusted while rendering).
  if (desk.cardOnReader !== chosen.onReader)
    setChosen({ cardNo: desk.cardOnReader ?? chosen.cardNo, onReader: desk.cardOnReader });
  const cardNo = chosen.cardNo;
  const query = useQuery({
    queryKey: DESK_KEYS.card(cardNo ?? ''),
    queryFn: ({ signal }) => deskApi.card(cardNo!, desk.deskReader, signal),
    enabled: !!cardNo,
    retry: false,
  });
  const setCardNo = (next: string | undefined) =>
    setChosen((current) => ({ ...current, cardNo: next }));
  return { cardNo, setCardNo, query };
}
