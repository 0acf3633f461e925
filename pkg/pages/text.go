package pages

import "fmt"

// texts holds every word the pages show, per language (the request's: en
// or es). A key missing from a language is a test failure, never a blank.
var texts = map[string]map[string]string{
	"en": {
		// Labels.
		"business":       "Business",
		"service":        "Service",
		"window":         "Arrival window",
		"where":          "Where",
		"code":           "Request code",
		"deposit":        "Deposit",
		"rules":          "What happens to the deposit",
		"terms":          "The business's deposit terms",
		"call":           "Call",
		"back":           "Back to your request",
		"pay_link":       "Pay the deposit",
		"cancel_link":    "Cancel this request",
		"not_an_appt":    "A request is not an appointment until the business confirms it.",
		"private":        "Anyone with this page's address can see it and cancel the request: share it only with people you trust.",
		"moved":          "The business moved your arrival window to this time.",
		"simulated_note": "Simulated deposit: this business's site is a preview, so no card is asked for and no money moves.",
		"local_note":     "Simulated deposit: this server takes no real payments, so no card is asked for and no money moves.",

		// States of the request, in plain words, and what they mean.
		"state_pending_payment": "Waiting for your deposit",
		"state_new":             "Request sent, not confirmed yet",
		"state_accepted":        "Confirmed by the business",
		"state_declined":        "Declined by the business",
		"state_completed":       "Job done",
		"state_cancelled":       "Cancelled",
		"state_no_show":         "Marked as nobody there",
		"state_expired":         "Expired: the deposit was not paid in time",
		"state_unanswered":      "Expired: the business did not answer in time",
		"hint_pending_payment":  "%s sees your request once the deposit is paid. Pay by %s, or the time is released.",
		"hint_new":              "%s has your request and will confirm it, offer another time or decline it.",
		"hint_accepted":         "%s expects you at this time.",
		"hint_declined":         "%s cannot take this job. Call them or look for another time.",
		"hint_completed":        "%s marked the job as done.",
		"hint_cancelled":        "This request is cancelled; nobody will come.",
		"hint_no_show":          "%s came but found nobody there.",
		"hint_expired":          "The time was released. You can send a new request.",

		// The deposit's state.
		"deposit_due":       "%s due. Pay by %s.",
		"deposit_paid":      "%s paid on %s.",
		"deposit_refunded":  "%s refunded in full on %s.",
		"deposit_kept":      "%s kept by the business (%s).",
		"deposit_deducted":  "%s deducted from your bill (%s).",
		"deposit_expired":   "Not paid in time: nothing was charged.",
		"deposit_cancelled": "Nothing was charged: the request was cancelled before paying.",
		"refund_card":       "The refund goes back to the card you paid with; your bank may take a few days to show it.",

		// The rules.
		"rule_job_done":       "Job done: deducted from your final bill.",
		"rule_not_there":      "Nobody there when the business comes: kept by the business.",
		"rule_cancel_early":   "You cancel at least %d hours before the arrival window: refunded in full.",
		"rule_cancel_late":    "You cancel later: kept by the business.",
		"rule_business":       "The business declines or cancels: refunded in full.",
		"rule_business_moves": "The business moves your window: refunded if you then cancel or are not there.",

		// Payment.
		"pay_title":        "Pay the deposit",
		"pay_for":          "Deposit for %s",
		"pay_by":           "Pay by %s to keep this arrival window. After that the time is released.",
		"pay_button":       "Simulate paying %s",
		"pay_simulated":    "This is a simulated payment: no card, no money. The button moves your request on as a payment would.",
		"pay_unavailable":  "Online payment is not available right now. Try again in a few minutes, or call the business.",
		"notice_paid":      "Deposit received. Your request is on its way to the business.",
		"notice_late":      "This payment could not be used for your request (it arrived after the hold on this time ended, or the deposit was already paid), so it is being refunded in full.",
		"notice_too_late":  "The time to pay this deposit has passed.",
		"notice_cancelled": "Your request is cancelled.",

		// Cancelling.
		"cancel_title":      "Cancel this request?",
		"cancel_button":     "Yes, cancel the request",
		"cancel_keep":       "No, keep it",
		"cancel_no_deposit": "No deposit was asked for this request.",
		"cancel_unpaid":     "The deposit has not been paid, so nothing is charged.",
		"cancel_moved":      "The business moved your arrival window, so your %s deposit is refunded in full.",
		"cancel_early":      "You are cancelling at least %d hours before the arrival window, so your %s deposit is refunded in full (if you confirm by %s).",
		"cancel_late":       "The arrival window starts in less than %d hours, so the business keeps your %s deposit.",
		"cancel_changed":    "What happens to your deposit changed while you were deciding. Read it again before you confirm.",
		"cancel_refused":    "This request can no longer be cancelled online. Call the business.",

		// Errors.
		"not_found_title": "Page not found",
		"not_found":       "No request has this address. Check the link you were sent.",
		"error_title":     "Something went wrong",
		"error":           "Something went wrong on our side. Try again in a minute.",
	},
	"es": {
		"business":       "Negocio",
		"service":        "Servicio",
		"window":         "Horario de llegada",
		"where":          "Dónde",
		"code":           "Código de la solicitud",
		"deposit":        "Depósito",
		"rules":          "Qué pasa con el depósito",
		"terms":          "Condiciones del depósito del negocio",
		"call":           "Llamar",
		"back":           "Volver a su solicitud",
		"pay_link":       "Pagar el depósito",
		"cancel_link":    "Cancelar esta solicitud",
		"not_an_appt":    "Una solicitud no es una cita hasta que el negocio la confirma.",
		"private":        "Cualquiera con la dirección de esta página puede verla y cancelar la solicitud: compártala solo con personas de confianza.",
		"moved":          "El negocio cambió su horario de llegada a esta hora.",
		"simulated_note": "Depósito simulado: el sitio de este negocio es una vista previa, así que no se pide tarjeta y no se mueve dinero.",
		"local_note":     "Depósito simulado: este servidor no acepta pagos reales, así que no se pide tarjeta y no se mueve dinero.",

		"state_pending_payment": "Esperando su depósito",
		"state_new":             "Solicitud enviada, aún sin confirmar",
		"state_accepted":        "Confirmada por el negocio",
		"state_declined":        "Rechazada por el negocio",
		"state_completed":       "Trabajo terminado",
		"state_cancelled":       "Cancelada",
		"state_no_show":         "Marcada como sin nadie en casa",
		"state_expired":         "Vencida: el depósito no se pagó a tiempo",
		"state_unanswered":      "Vencida: el negocio no respondió a tiempo",
		"hint_pending_payment":  "%s verá su solicitud cuando el depósito esté pagado. Pague antes de %s, o el horario se libera.",
		"hint_new":              "%s tiene su solicitud y la confirmará, le ofrecerá otro horario o la rechazará.",
		"hint_accepted":         "%s lo espera a esta hora.",
		"hint_declined":         "%s no puede hacer este trabajo. Llámelos o busque otro horario.",
		"hint_completed":        "%s marcó el trabajo como terminado.",
		"hint_cancelled":        "Esta solicitud está cancelada; nadie irá.",
		"hint_no_show":          "%s fue pero no encontró a nadie.",
		"hint_expired":          "El horario se liberó. Puede enviar una nueva solicitud.",

		"deposit_due":       "%s pendiente. Pague antes de %s.",
		"deposit_paid":      "%s pagado el %s.",
		"deposit_refunded":  "%s reembolsado por completo el %s.",
		"deposit_kept":      "%s retenido por el negocio (%s).",
		"deposit_deducted":  "%s descontado de su factura (%s).",
		"deposit_expired":   "No se pagó a tiempo: no se cobró nada.",
		"deposit_cancelled": "No se cobró nada: la solicitud se canceló antes de pagar.",
		"refund_card":       "El reembolso vuelve a la tarjeta con la que pagó; su banco puede tardar unos días en mostrarlo.",

		"rule_job_done":       "Trabajo hecho: se descuenta de su factura final.",
		"rule_not_there":      "No hay nadie cuando llega el negocio: lo retiene el negocio.",
		"rule_cancel_early":   "Cancela al menos %d horas antes del horario de llegada: se reembolsa por completo.",
		"rule_cancel_late":    "Cancela más tarde: lo retiene el negocio.",
		"rule_business":       "El negocio rechaza o cancela: se reembolsa por completo.",
		"rule_business_moves": "El negocio cambia su horario: se reembolsa si luego cancela o no está.",

		"pay_title":        "Pagar el depósito",
		"pay_for":          "Depósito para %s",
		"pay_by":           "Pague antes de %s para mantener este horario de llegada. Después, el horario se libera.",
		"pay_button":       "Simular el pago de %s",
		"pay_simulated":    "Este es un pago simulado: sin tarjeta, sin dinero. El botón hace avanzar su solicitud como lo haría un pago.",
		"pay_unavailable":  "El pago en línea no está disponible ahora. Inténtelo en unos minutos o llame al negocio.",
		"notice_paid":      "Depósito recibido. Su solicitud va en camino al negocio.",
		"notice_late":      "Este pago no se pudo usar para su solicitud (llegó después de que venció la reserva de este horario, o el depósito ya estaba pagado), así que se le reembolsa por completo.",
		"notice_too_late":  "El plazo para pagar este depósito ya pasó.",
		"notice_cancelled": "Su solicitud está cancelada.",

		"cancel_title":      "¿Cancelar esta solicitud?",
		"cancel_button":     "Sí, cancelar la solicitud",
		"cancel_keep":       "No, mantenerla",
		"cancel_no_deposit": "No se pidió depósito para esta solicitud.",
		"cancel_unpaid":     "El depósito no se ha pagado, así que no se cobra nada.",
		"cancel_moved":      "El negocio cambió su horario de llegada, así que su depósito de %s se reembolsa por completo.",
		"cancel_early":      "Cancela al menos %d horas antes del horario de llegada, así que su depósito de %s se reembolsa por completo (si confirma antes de %s).",
		"cancel_late":       "El horario de llegada empieza en menos de %d horas, así que el negocio retiene su depósito de %s.",
		"cancel_changed":    "Lo que pasa con su depósito cambió mientras decidía. Léalo de nuevo antes de confirmar.",
		"cancel_refused":    "Esta solicitud ya no se puede cancelar en línea. Llame al negocio.",

		"not_found_title": "Página no encontrada",
		"not_found":       "Ninguna solicitud tiene esta dirección. Revise el enlace que recibió.",
		"error_title":     "Algo salió mal",
		"error":           "Algo salió mal de nuestro lado. Inténtelo de nuevo en un minuto.",
	},
}

// tr returns the text key in lang, formatted with args.
func tr(lang, key string, args ...any) string {
	s, ok := texts[lang][key]
	if !ok {
		s = texts["en"][key]
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}
