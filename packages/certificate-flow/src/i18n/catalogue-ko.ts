/**
 * The funnel's Korean messages: the default language and the shape every other language follows
 * (CatalogueKey is derived from this object). Sentences are plain polite Korean in 해요체, the
 * register a public-service app uses with residents; provider names keep the seed's neutral kinds.
 */
export const KO = {
  service: {
    heading: '전자증명서 발급',
    title: '전자증명서 발급',
  },
  language: {
    label: '언어',
    ko: '한국어',
    en: 'English',
  },
  steps: {
    intro: '정보 입력',
    simpleVerification: '간편인증',
    confirm: '인증 승인',
    done: '발급 완료',
  },
  progress: {
    label: '진행 단계',
    position: '{{total}}단계 중 {{current}}단계: ',
  },
  documents: {
    'resident-certificate': '주민등록표 등본',
    'resident-abstract': '주민등록표 초본',
    'family-relations': '가족관계증명서',
  },
  chosenDocument: '신청한 증명서: {{document}}',
  intro: {
    heading: '신청할 증명서를 고르고 본인 정보를 입력해 주세요',
    documentLegend: '어떤 증명서가 필요하세요?',
    residentNumberLegend: '주민등록번호',
    residentNumberHint: '앞 6자리는 생년월일이에요(예: 900101). 뒤 7자리는 화면에 보이지 않고, 암호화해서 보내요.',
    front: '앞 6자리',
    back: '뒤 7자리',
    addressLegend: '주민등록상 주소',
    sido: '시·도',
    sigg: '시·군·구',
    sidoPlaceholder: '시·도를 선택해 주세요',
    siggPlaceholder: '시·군·구를 선택해 주세요',
    siggNeedsSido: '시·도를 먼저 선택해 주세요',
    familyLegend: '가족 성명 (한 명 이상 입력해 주세요)',
    family: {
      fthrNm: '아버지 성명',
      mthrNm: '어머니 성명',
      sposNm: '배우자 성명',
      childNm: '자녀 성명',
    },
    next: '인증 수단 선택하기',
  },
  validation: {
    front: {
      missing: '주민등록번호 앞 6자리를 입력해 주세요.',
      notADate: '앞 6자리가 올바른 생년월일이 아니에요. 예: 1990년 1월 1일 → 900101',
    },
    back: '뒤 7자리를 모두 입력해 주세요. (지금 {{count}}자리)',
    digitsOnly: '숫자만 입력할 수 있어요.',
    sido: '주민등록상 주소의 시·도를 선택해 주세요.',
    sigg: '주민등록상 주소의 시·군·구를 선택해 주세요.',
    nameTooLong: '성명은 {{max}}자까지 입력할 수 있어요.',
    familyRequired: '아버지, 어머니, 배우자, 자녀 중 한 명 이상의 성명을 입력해 주세요.',
  },
  verification: {
    heading: '간편인증 수단을 선택해 주세요',
    help: '선택한 앱으로 인증 요청을 보내요.',
    back: '정보 다시 입력하기',
    backHint: '뒤 7자리는 다시 입력해야 해요',
  },
  providers: {
    provider_a: '메신저 앱',
    provider_b: '포털 앱',
    provider_c: '결제 앱',
    provider_d: '은행 인증서 D',
    provider_e: '은행 인증서 E',
  },
  providerKinds: {
    messenger: '메신저 앱',
    portal: '포털',
    payments: '결제 앱',
    'bank-certificate': '은행 인증서',
  },
  confirm: {
    heading: '{{provider}}에서 인증을 승인해 주세요',
    anyProvider: '선택한 인증 수단',
    open: '휴대폰에 온 {{provider}} 알림을 눌러 인증 요청을 열어 주세요.',
    approve: '인증 요청을 승인해 주세요.',
    comeBack: '이 화면으로 돌아와 [인증 완료하기]를 눌러 주세요.',
    complete: '인증 완료하기',
    chooseAnother: '다른 인증 수단 선택하기',
  },
  done: {
    heading: '증명서가 발급되었어요',
    issued: '파일은 {{minutes}}분 동안만 열 수 있어요. 지금 내려받아 저장해 주세요.',
    issuedWithoutLimit: '파일은 잠시 동안만 열 수 있어요. 지금 내려받아 저장해 주세요.',
    expiresAt: '{{time}}까지 열 수 있어요.',
    linkExpired: '파일을 열 수 있는 시간이 지났어요. 증명서가 더 필요하면 새로 신청해 주세요.',
    notLoaded: '발급한 파일을 불러오지 못했어요. 연결을 확인한 뒤 다시 시도해 주세요.',
    open: 'PDF 열기',
    opensInNewTab: ' (새 탭에서 열려요)',
    share: 'PDF 공유하기',
    download: 'PDF 내려받기',
    restart: '다른 증명서 신청하기',
  },
  busy: {
    encrypt: '주민등록번호를 암호화하고 있어요…',
    start: '선택한 인증 수단으로 인증 요청을 보내고 있어요…',
    complete: '승인을 확인하고 증명서를 발급하고 있어요…',
    resume: '진행 중이던 신청을 불러오고 있어요…',
  },
  loading: '불러오고 있어요…',
  resume: {
    backAgain: '화면을 다시 불러오면서 지워졌어요. 뒤 7자리는 안전을 위해 저장하지 않아요.',
  },
  entry: {
    backToList: '목록으로 돌아가기',
    back: '이전 화면으로 돌아가기',
    retry: '다시 시도하기',
  },
  dialog: {
    ok: '확인',
    close: '닫기',
  },
  alerts: {
    invalidInput: {
      title: '입력한 정보를 확인해 주세요',
      message:
        '주민등록번호나 주소가 발급 기관의 정보와 맞지 않을 수 있어요. 입력한 내용을 고친 뒤 다시 신청해 주세요.',
    },
    notApprovedYet: {
      title: '아직 승인되지 않았어요',
      message: '인증 앱에서 요청을 승인한 뒤 [인증 완료하기]를 다시 눌러 주세요.',
    },
    authenticationExpired: {
      title: '인증 시간이 지났어요',
      message: '인증 요청은 {{minutes}}분 안에 승인해야 해요. 인증 수단을 다시 선택해 새 요청을 보내 주세요.',
      messageWithoutLimit: '인증 요청의 유효 시간이 지났어요. 인증 수단을 다시 선택해 새 요청을 보내 주세요.',
    },
    unsupportedProvider: {
      title: '이 인증 수단은 사용할 수 없어요',
      message: '이 증명서에는 선택한 인증 수단을 사용할 수 없어요. 다른 인증 수단을 선택해 주세요.',
    },
    vendorMismatch: {
      title: '신청 정보가 맞지 않아요',
      message: '신청 화면을 목록에서 다시 열어 주세요. 계속 안 되면 고객센터로 문의해 주세요.',
    },
    rejected: {
      title: '증명서를 발급하지 못했어요',
      message:
        '인증이 취소되었거나 확인되지 않았어요. 인증 수단을 다시 선택해 주세요. 정보가 틀렸다면 [정보 다시 입력하기]를 눌러 주세요.',
    },
    signedOut: {
      title: '다시 로그인해 주세요',
      message: '로그인이 만료되었어요. 다시 로그인한 뒤 증명서를 신청해 주세요.',
    },
    notCertified: {
      title: '본인인증이 필요해요',
      message: '본인인증을 마친 회원만 신청할 수 있어요. 본인인증을 마친 뒤 다시 신청해 주세요.',
      messageWithMenu: '본인인증을 마친 회원만 신청할 수 있어요. {{menu}}에서 본인인증을 마친 뒤 다시 신청해 주세요.',
    },
    assignmentNotFound: {
      title: '신청 내역을 찾을 수 없어요',
      message: '이미 처리되었거나 취소된 신청일 수 있어요. 목록을 새로 고친 뒤 다시 열어 주세요.',
    },
    tooManyRequests: {
      title: '잠시 후 다시 시도해 주세요',
      message: '짧은 시간에 여러 번 신청했어요. 1분 뒤에 다시 시도해 주세요.',
    },
    unavailable: {
      title: '서비스를 이용할 수 없어요',
      message: '지금은 증명서 발급 서비스가 응답하지 않아요. 잠시 뒤에 다시 시도해 주세요.',
    },
    encryptionUnavailable: {
      title: '안전하게 보낼 수 없어요',
      message:
        '이 기기에서 주민등록번호를 안전하게 보낼 수 없어 보내지 않았어요. 앱을 최신 버전으로 업데이트한 뒤 다시 시도해 주세요.',
    },
    unexpected: {
      title: '문제가 생겼어요',
      message: '일시적인 오류로 증명서를 발급하지 못했어요. 잠시 뒤 다시 시도해 주세요.',
    },
    network: {
      title: '인터넷 연결을 확인해 주세요',
      message: '연결이 끊겨 요청을 보내지 못했어요. 연결을 확인한 뒤 다시 눌러 주세요.',
    },
  },
} as const;
