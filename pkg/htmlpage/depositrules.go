package htmlpage

// depositRuleTexts are the six rules of a deposit, as the person's pages
// and the booking form show them before anyone pays: one copy, so that the
// two never say different things.
var depositRuleTexts = Texts{
	"en": {
		"job_done":       "Job done: deducted from your final bill.",
		"not_there":      "Nobody there when the business comes: kept by the business.",
		"cancel_early":   "You cancel at least %d hours before the arrival window: refunded in full.",
		"cancel_late":    "You cancel later: kept by the business.",
		"business":       "The business declines or cancels: refunded in full.",
		"business_moves": "The business moves your window: refunded if you then cancel or are not there.",
	},
	"es": {
		"job_done":       "Trabajo hecho: se descuenta de su factura final.",
		"not_there":      "No hay nadie cuando llega el negocio: lo retiene el negocio.",
		"cancel_early":   "Cancela al menos %d horas antes del horario de llegada: se reembolsa por completo.",
		"cancel_late":    "Cancela más tarde: lo retiene el negocio.",
		"business":       "El negocio rechaza o cancela: se reembolsa por completo.",
		"business_moves": "El negocio cambia su horario: se reembolsa si luego cancela o no está.",
	},
}

// DepositRules are the rules of a deposit that is refunded in full when
// the person cancels at least freeCancellationHours before the window, in
// lang, in the order the spec gives them.
func DepositRules(lang string, freeCancellationHours int) []string {
	t := depositRuleTexts
	return []string{
		t.T(lang, "job_done"),
		t.T(lang, "not_there"),
		t.T(lang, "cancel_early", freeCancellationHours),
		t.T(lang, "cancel_late"),
		t.T(lang, "business"),
		t.T(lang, "business_moves"),
	}
}
